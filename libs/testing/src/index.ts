export * from './fixtures';
export * from './condition.waits';
