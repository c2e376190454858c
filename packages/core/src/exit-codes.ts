/**
 * The exit status of a process that cannot start because of its configuration (a bad environment
 * variable, the web build missing): 78, EX_CONFIG of sysexits.h. Starting it again cannot help, so
 * the supervisor of `npm start` does not, nor does the README's systemd unit
 * (`RestartPreventExitStatus=78`). Its own module, so the supervisor reads it without loading core.
 */
export const CONFIG_ERROR_EXIT_CODE = 78;
