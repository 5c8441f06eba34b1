// tsc compiles only TypeScript; the SQL migrations are read at run time, so they travel with the build.
import { cpSync } from 'node:fs';

cpSync('src/store/migrations', 'dist/store/migrations', { recursive: true });
