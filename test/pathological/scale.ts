/** How large the long generated files get: small enough for `npm test`, the sizes users hit in the long run. */
export interface Scale {
  /** Lines in one run of comment lines. */
  readonly commentLines: number;
  /** Lines of a long file holding one unclosed bracket. */
  readonly fileLines: number;
  /** Classes in an inheritance chain. */
  readonly classes: number;
  /** Files in a chain of imports. */
  readonly importFiles: number;
}

export const SHORT: Scale = { commentLines: 1_000, fileLines: 1_500, classes: 200, importFiles: 30 };

/** Past what the issue saw fail: 4,000 comment lines, a 10,000-line file, 1,000 classes, 100 to 200 files. */
export const LONG: Scale = { commentLines: 6_000, fileLines: 12_000, classes: 1_200, importFiles: 220 };
