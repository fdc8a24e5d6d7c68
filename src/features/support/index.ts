// /support and /account/help travel as one chunk (one dynamic import in the router).
export { HelpScreen } from './HelpScreen';
export { SupportScreen } from './SupportScreen';
