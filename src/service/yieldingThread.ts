/**
 * The analysis thread gives way to the extension host's: on Linux a thread has a priority of its own, and
 * this one's is lowered, so that on a machine with few cores the host's thread (every extension's hovers,
 * completions and typing) is not kept waiting for a core while a large file is analysed. Elsewhere, or where
 * the system refuses, nothing changes.
 */
import { readlinkSync } from 'fs';
import { setPriority } from 'os';

/** A nice value: lower than the host's (0) by half the range. */
const ANALYSIS_NICENESS = 10;

export function yieldToOtherThreads(): void {
  try {
    // /proc/thread-self is `<pid>/task/<tid>`: Linux's priority calls take a thread's id as a process's.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, ANALYSIS_NICENESS);
  } catch {
    // Not Linux, or not allowed: the thread keeps the host's priority.
  }
}
