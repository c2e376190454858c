export * from './cookies.ts';
export * from './members.ts';
export * from './sessions.ts';
export * from './sign-in.ts';
