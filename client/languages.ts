/** Languages served by the language server (the desktop and the browser client both select them). */
export const SERVED_LANGUAGES = ['npu-trace', 'cmdq', 'nnapi-systrace', 'inferscope', 'chrome-trace'];
