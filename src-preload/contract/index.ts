export * from './model';
export * from './settings';
export * from './requests';
export * from './events';
export * from './bridge';
export * from './error-message';
export * from './provider-urls';
export * from './key-services';
