/**
 * The timeline page's widgets. main.ts makes them (their handlers reach every part of the page)
 * and puts them here before any message comes; the parts that update them read them from here.
 */
import type { KprofPane } from './kprofPane';
import type { SummaryView } from './summary';
import type { Toolbar } from './toolbar';

export const widgets = {} as { toolbar: Toolbar; summaryView: SummaryView; kprofPane: KprofPane };
