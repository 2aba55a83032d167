import * as path from 'path';

/** The `-r` module that lets a test's child process run TypeScript (see register-ts.js). */
export const REGISTER_TS = path.join(__dirname, 'register-ts.js');
