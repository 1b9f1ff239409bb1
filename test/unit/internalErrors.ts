/**
 * Loaded before every unit test (.mocharc.json) and by the fuzz: an internal error of the analysis fails
 * the test that meets it, where the editor and the CLI would end that part of the file as unknown.
 */
import { internalErrors } from '../../src/core/limits/internalErrors';

internalErrors.rethrow = true;
