/** The signing link of a lease: the lease page of this service. */
export const signingLink = (publicBaseUrl: string, token: string): string => `${publicBaseUrl}/leases/sign/${token}`;
