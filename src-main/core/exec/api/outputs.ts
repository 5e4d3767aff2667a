// The outputs group of the engine's way in (`Outputs.…` from core/exec): how a run's output reads for
// the model (shared with notebook exports) and the UI's cap on it (measured by bench/output.bench.ts).
export { HeadTail, splitBudget } from '../output/head-tail';
export { describeForModel } from '../output/run-output';
export { OutputCap, formatBytes } from '../output/output-cap';
