/** Command ids the timeline's page and panel name without loading the commands (the browser build has no exports). */
export const EXPORT_CHROME_TRACE = 'npuTrace.exportChromeTrace';
export const EXPORT_PARQUET = 'npuTrace.exportParquet';
export const COMPARE_WITH = 'npuTrace.compareWith';
export const PIN_BASELINE = 'npuTrace.pinBaseline';
export const CLEAR_BASELINE = 'npuTrace.clearBaseline';
