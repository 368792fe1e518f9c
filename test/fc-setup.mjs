// Property tests draw a new seed every run, so each CI run explores new inputs; fast-check prints
// the seed and path of a failure. FC_SEED=<seed> replays one (add FC_PATH to go straight to it).
import fc from 'fast-check';

const seed = process.env.FC_SEED;
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed), path: process.env.FC_PATH });
