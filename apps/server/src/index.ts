export { buildAllInOneApp } from './app.ts';
