// The sign-in screens as one chunk with one loader in the router: /login, the mailed link's /login/{token} and
// /forgot-password open one after the other and share most of their code (AuthShell, the link's sign-in), and
// each import site of its own would cost the shell every viewer downloads.
export { ForgotPasswordScreen } from './ForgotPasswordScreen';
export { LoginLinkScreen } from './LoginLinkScreen';
export { LoginScreen } from './LoginScreen';
