/** The folder of the built admin app (index.html and assets/), served at /admin. */
export declare const adminAssetsDir: string;
/** Whether the app has been built (`pnpm --filter @panya/admin build`). */
export declare function adminAssetsBuilt(): boolean;
