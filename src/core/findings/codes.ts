/**
 * The stable codes of the findings: what the Problems panel, the CLI's rules (SARIF) and the setting that
 * silences codes name. A test checks the CLI's rules and package.json's list against this one.
 */
export const FINDING_CODES = [
  'heads-divisibility',
  'groups-divisibility',
  'negative-size',
  'zero-size',
  'non-integer-size',
  'sequential-mismatch',
  'feature-mismatch',
  'attention-embed-mismatch',
  'view-mismatch',
  'unregistered-layers',
  'untracked-sublayers',
  'constructor-raises',
  'analysis-truncated',
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];
