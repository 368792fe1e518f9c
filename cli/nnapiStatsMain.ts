import { nnapiStats } from './nnapiStats';
import { runProcess } from './runProcess';

// `npu-trace nnapi-stats` bundled alone (dist/nnapiStats.js, ~70 KB): CI runs it once per systrace,
// and loading the whole 1.5 MB CLI bundle cost more than the reference Python parser's whole run.
runProcess(nnapiStats, process.argv.slice(3));
