/** String codes of the runner's errors. */
export type ScenarioErrorCode =
  /** A scenario file (or a corpus entry) the runner cannot map: refused, never guessed. */
  | 'SCENARIO_INVALID'
  /** The chaos control API refused a request or could not be reached. */
  | 'CHAOS_CONTROL_FAILED'
  /** A report that is not the canonical report format. */
  | 'REPORT_INVALID'
  /** A call of the overhead measurement failed on a healthy server: there is no figure to give. */
  | 'OVERHEAD_CALL_FAILED';

const BRAND = Symbol.for('mcp-resilience.scenarios.error');

/**
 * The runner's one error class; recognize it with {@link isScenarioError}, which works across
 * duplicate copies of the package (a sample's bundle and the workspace's).
 *
 * @example
 * throw new ScenarioError('SCENARIO_INVALID', 'evict.json.steps[2]: unknown field "dropStream"');
 */
export class ScenarioError extends Error {
  readonly code: ScenarioErrorCode;
  readonly [BRAND] = true;

  constructor(code: ScenarioErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ScenarioError';
    this.code = code;
  }
}

/**
 * Whether a value is a {@link ScenarioError}, optionally with a given code.
 *
 * @example
 * if (isScenarioError(error, 'SCENARIO_INVALID')) report.push(error.message);
 */
export function isScenarioError(value: unknown, code?: ScenarioErrorCode): value is ScenarioError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true
    && (code === undefined || (value as ScenarioError).code === code);
}
