import { packageTestConfig } from '../../vitest.shared.ts';

// dependency-cruiser reads every source file of the repository (a few seconds, more on a busy machine).
export default packageTestConfig(import.meta.url, { testTimeout: 120_000 });
