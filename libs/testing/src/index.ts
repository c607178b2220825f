export * from './fixtures';
export * from './condition.waits';
export * from './image.server';
