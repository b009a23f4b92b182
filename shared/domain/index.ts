export * from './server';
export * from './log';
export * from './config';
