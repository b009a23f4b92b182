export * from './form-schema';
export * from './form-values';
export * from './formats';
