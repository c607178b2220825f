export * from './fixtures';
export * from './condition.waits';
export * from './image.server';
export * from './large-png.fixture';
export * from './counting-array.fixture';
