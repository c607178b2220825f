// Stops the control plane started by global-setup.ts (every process, its temporary state).
export default async function globalTeardown(): Promise<void> {
  await globalThis.tesseraControlPlane?.stop();
}
