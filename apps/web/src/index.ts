export { dashboardSourceHash, ensureDashboardBuilt } from './dashboard/build.ts';
export { type WebOptions, webApp } from './plugin.ts';
