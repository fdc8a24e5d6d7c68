export * from './auth';
export * from './common';
export * from './discover';
export * from './interactions';
export * from './messages';
export * from './page';
export * from './user';
export * from './video';
