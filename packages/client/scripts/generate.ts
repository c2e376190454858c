import { writeFileSync } from 'node:fs';
import { GENERATED_FILE, generateTypes } from './types.ts';

writeFileSync(GENERATED_FILE, await generateTypes());
