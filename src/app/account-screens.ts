// The account home and the following list as one chunk with one loader: the list opens from the account
// screen, and each import site of its own would cost the shell every viewer downloads.
export { AccountScreen } from '../features/account/AccountScreen';
export { FollowingScreen } from '../features/following/FollowingScreen';
