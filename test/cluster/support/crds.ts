// CustomResourceDefinitions the chart's optional objects need in the cluster. The real ones come
// with their operators (the Prometheus Operator for ServiceMonitor); here a stand-in of the same
// group, version and kind, so the API server stores the chart's object (its fields unchecked).
import { Kube, eventually } from './kube';

const serviceMonitor = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'servicemonitors.monitoring.coreos.com' },
  spec: {
    group: 'monitoring.coreos.com',
    scope: 'Namespaced',
    names: {
      kind: 'ServiceMonitor',
      listKind: 'ServiceMonitorList',
      plural: 'servicemonitors',
      singular: 'servicemonitor',
    },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    ],
  },
};

/** Creates the stand-in CRDs and waits until the API server serves them. */
export async function createCrds(kube: Kube): Promise<void> {
  const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  await kube.create(path, serviceMonitor);
  await eventually('ServiceMonitor CRD Established', async () => {
    const crd = await kube.get(`${path}/${serviceMonitor.metadata.name}`);
    const established = (crd.status?.conditions ?? []).find(
      (c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True',
    );
    return established;
  });
}
