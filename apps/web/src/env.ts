import { loadConfigOrExit } from '@esign/core';

export const config = loadConfigOrExit(process.env);
