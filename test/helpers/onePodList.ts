/** A ResourceList of one Pod, `p` with container `c`, which the KRM results tests append to. */
export const ONE_POD_LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: p
  spec:
    containers:
    - name: c
      image: x
`;
