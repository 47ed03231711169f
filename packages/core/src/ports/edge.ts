/** Custom-hostname registration at an edge provider (e.g. Cloudflare for SaaS), and cache purge. */
export type EdgeHostnameStatus = 'pending' | 'verifying_dns' | 'active' | 'failed';

export interface EdgeHostname {
  edgeHostnameId: string;
  status: EdgeHostnameStatus;
  txtName: string;
  txtValue: string;
  verificationError: string | null;
}

export interface EdgeProvider {
  register(hostname: string): Promise<EdgeHostname>;
  status(edgeHostnameId: string): Promise<EdgeHostname>;
  remove(edgeHostnameId: string): Promise<void>;
  purge(urls: readonly string[]): Promise<void>;
}
