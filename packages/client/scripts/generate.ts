import { writeFileSync } from 'node:fs';
import { generatePythonOperations, PYTHON_OPERATIONS_FILE } from './python-operations.ts';
import { GENERATED_FILE, generateTypes } from './types.ts';

writeFileSync(GENERATED_FILE, await generateTypes());
writeFileSync(PYTHON_OPERATIONS_FILE, generatePythonOperations());
