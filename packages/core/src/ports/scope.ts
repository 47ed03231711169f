/** The tenant + workspace every data call is confined to. */
export interface Scope {
  tenantId: string;
  workspaceId: string;
}
