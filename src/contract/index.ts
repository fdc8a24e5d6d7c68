export * from './common';
export * from './messages';
export * from './page';
export * from './user';
export * from './video';
