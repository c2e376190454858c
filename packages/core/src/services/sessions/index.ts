export * from './cookies.ts';
export * from './members.ts';
export * from './second-step.ts';
export * from './second-step-rule.ts';
export * from './sessions.ts';
export * from './sign-in.ts';
export * from './totp.ts';
export * from './totp-enrolment.ts';
