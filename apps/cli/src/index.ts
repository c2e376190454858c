export { commands } from './commands.ts';
