// The settings screens travel as one chunk: they are small, opened one after the other, and one dynamic
// import in the router costs the first load less than five.
export { ChannelColorScreen } from './ChannelColorScreen';
export { DetailsScreen } from './DetailsScreen';
export { GenderScreen } from './GenderScreen';
export { PasswordScreen } from './PasswordScreen';
export { SettingsScreen } from './SettingsScreen';
