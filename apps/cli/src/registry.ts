import { billingCommands } from './billing-commands.ts';
import { commands as baseCommands } from './commands.ts';
import { sealingCommands } from './sealing-commands.ts';
import { signInCommands } from './sign-in-commands.ts';

/** Every `esign` command by name: the one list main.ts runs and the README test checks. */
export const commands = { ...baseCommands, ...billingCommands, ...sealingCommands, ...signInCommands };
