import { faultyAnalysis, faultyInferscope, inferscopeTrace, pretty } from './inferscopeGen';

/** The committed InferScope examples and how each is made (a test checks they are up to date). */
export const INFERSCOPE_EXAMPLES: Record<string, () => string> = {
  'examples/llm-requests.inferscope.json': () => pretty(inferscopeTrace({ requests: 4, kernels: 3 })),
  'examples/faulty.inferscope.json': faultyInferscope,
  'examples/faulty.analysis.json': faultyAnalysis,
};
