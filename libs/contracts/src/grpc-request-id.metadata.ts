// The request id travels from the gateway's HTTP request to the service's handler as call
// metadata: the gateway sets it, the service's handler wrapper reads it.

/** The metadata key the gateway puts the HTTP request's id under. */
export const REQUEST_ID_METADATA_KEY = 'x-request-id';
