import { packageTestConfig } from '../vitest.shared.ts';

// proof.test.ts runs the whole corpus in every runtime once, before the tests that read the reports.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 900_000 });
