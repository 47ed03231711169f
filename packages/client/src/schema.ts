/**
 * The Panya API's paths and schemas as TypeScript types, generated from its OpenAPI document by
 * openapi-typescript. Do not edit: run `pnpm --filter @panya/client generate`.
 */
/* eslint-disable */
/** Any JSON value (metadata). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type paths = {
    "/api/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/answer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["answer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["documents.list"];
        put?: never;
        post: operations["documents.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["documents.bulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["documents.get"];
        put?: never;
        post?: never;
        delete: operations["documents.delete"];
        options?: never;
        head?: never;
        patch: operations["documents.update"];
        trace?: never;
    };
    "/api/docs/{id}/reindex": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["documents.reindex"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/by-external-id/{externalId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["documents.getByExternalId"];
        put: operations["documents.putByExternalId"];
        post?: never;
        delete: operations["documents.deleteByExternalId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.list"];
        put?: never;
        post: operations["workspaces.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.get"];
        put?: never;
        post?: never;
        delete: operations["workspaces.delete"];
        options?: never;
        head?: never;
        patch: operations["workspaces.update"];
        trace?: never;
    };
    "/api/workspaces/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["workspaces.restore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/custom-hostnames": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["hostnames.list"];
        put?: never;
        post: operations["hostnames.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/custom-hostnames/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["hostnames.check"];
        delete: operations["hostnames.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["billing.checkout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/seat-addon": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["billing.seat_addon"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["billing.usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/resolutions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["billing.resolutions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/resolutions/{id}/dispute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["billing.resolutions.dispute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["flows.list"];
        put?: never;
        post: operations["flows.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["flows.get"];
        put?: never;
        post?: never;
        delete: operations["flows.delete"];
        options?: never;
        head?: never;
        patch: operations["flows.update"];
        trace?: never;
    };
    "/api/flows/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["flows.start_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flow-runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["flows.get_run"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flow-runs/{id}/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["flows.draft_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flow-runs/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["flows.complete_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["conversations.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["conversations.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["conversations.messages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["conversations.poll"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/csat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["conversations.csat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["conversations.tags.list"];
        put?: never;
        post: operations["conversations.tags.add"];
        delete: operations["conversations.tags.remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/{id}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["messages.feedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tickets.list"];
        put?: never;
        post: operations["tickets.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tickets.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["tickets.close"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{id}/reopen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["tickets.reopen"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{id}/comment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["tickets.comment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/personas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["personas.list"];
        put?: never;
        post: operations["personas.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/personas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["personas.get"];
        put?: never;
        post?: never;
        delete: operations["personas.delete"];
        options?: never;
        head?: never;
        patch: operations["personas.update"];
        trace?: never;
    };
    "/api/conversations/{id}/visitor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["conversations.visitor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/visitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["visitors.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/visitors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["visitors.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["customers.list"];
        put?: never;
        post: operations["customers.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["customers.get"];
        put?: never;
        post?: never;
        delete: operations["customers.delete"];
        options?: never;
        head?: never;
        patch: operations["customers.update"];
        trace?: never;
    };
    "/api/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["inbox.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["tenant.erase"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tenant.settings.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["tenant.settings.update"];
        trace?: never;
    };
    "/api/tenant/connectors/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["tenant.connectorSecret.rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["apiKeys.list"];
        put?: never;
        post: operations["apiKeys.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["apiKeys.revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/widget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["widget.config"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces/{id}/visitor-identity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["workspaces.visitorIdentity.get"];
        put: operations["workspaces.visitorIdentity.put"];
        post?: never;
        delete: operations["workspaces.visitorIdentity.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/curated-answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["curated_answers.list"];
        put?: never;
        post: operations["curated_answers.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/curated-answers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["curated_answers.get"];
        put?: never;
        post?: never;
        delete: operations["curated_answers.delete"];
        options?: never;
        head?: never;
        patch: operations["curated_answers.update"];
        trace?: never;
    };
    "/api/eval/sets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["eval.list_sets"];
        put?: never;
        post: operations["eval.create_set"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval/sets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["eval.get_set"];
        put?: never;
        post?: never;
        delete: operations["eval.delete_set"];
        options?: never;
        head?: never;
        patch: operations["eval.update_set"];
        trace?: never;
    };
    "/api/eval/sets/{id}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["eval.import_set"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["eval.list_runs"];
        put?: never;
        post: operations["eval.start_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["eval.get_run"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/insights/gaps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["insights.gaps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["feedback.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/{id}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["documents.feedback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/privacy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["privacy.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch: operations["privacy.update"];
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["audit.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenant/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["tenant.sso.get"];
        put: operations["tenant.sso.put"];
        post?: never;
        delete: operations["tenant.sso.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload files (multipart field `file`) as documents; `?wait=true` answers once indexed. */
        post: operations["postApiDocsUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Streaming multi-turn chat as server-sent events. */
        post: operations["postApiChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log oldest first as JSON lines (one entry per line, with its chain hashes); `panya audit verify` checks the chain. */
        get: operations["getApiAuditExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dify/retrieval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dify's external knowledge API: register `{server}/api/dify` as the endpoint; `knowledge_id` is a workspace slug or id; errors are `{error_code, error_msg}`. */
        post: operations["postApiDifyRetrieval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** MCP: the server-to-client event stream (Streamable HTTP). */
        get: operations["getApiMcp"];
        put?: never;
        /** The MCP tool server (Streamable HTTP): a key with the `mcp` scope; also under the tenant and workspace addresses. */
        post: operations["postApiMcp"];
        /** MCP: ends a session (Streamable HTTP). */
        delete: operations["deleteApiMcp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** RFC 9728 metadata for MCP hosts: no authorization server; the API key is the credential. */
        get: operations["getWellKnownOauthProtectedResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in to the admin app; sets the session cookie. */
        post: operations["postApiAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ends the session. */
        post: operations["postApiAuthLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who is signed in, and the tenants and roles the admin app may open. */
        get: operations["getApiAuthSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cron/{job}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs one scheduled job for every tenant (`/c/{tenantSlug}/api/cron/{job}`: one tenant, also with an owner session). */
        get: operations["getApiCronJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The payment processor's events; the `Stripe-Signature` header over the raw body is the credential. */
        post: operations["postApiBillingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Content-sync events (`document.upsert`, `document.delete`) signed with the tenant's secret (`Panya-Signature`); the tenant from the address or `Panya-Tenant`. */
        post: operations["postApiConnectorsWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/edge/tls-allowed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reverse proxy's on-demand TLS ask: 200 for an active custom hostname, else 404. */
        get: operations["getApiEdgeTlsAllowed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ops/hostnames": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The operator's view of custom hostnames. */
        get: operations["getApiOpsHostnames"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers. */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: database reachable, migrations current, ingest worker alive (else 503 naming what failed). */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (text exposition format); keep it on the private network. */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document. */
        get: operations["getApiOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The rendered API reference of this document. */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/scalar.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reference page's renderer (Scalar), served from this server. */
        get: operations["getDocsScalarJs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chat widget: embed with <script src=".../widget.js" data-key="svc_pub_…" async>. */
        get: operations["getWidgetJs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        /** @description RFC 9457 problem details; `code` is the machine-readable error. */
        Problem: {
            type: string;
            title: string;
            status: number;
            detail?: string;
            instance?: string;
            /** @enum {string} */
            code: "invalid_request" | "unauthorized" | "forbidden" | "plan_required" | "quota_exceeded" | "not_found" | "conflict" | "unprocessable" | "gone" | "payload_too_large" | "unsupported_media_type" | "request_timeout" | "limit_exceeded" | "hard_cap_reached" | "rate_limited" | "internal" | "unavailable" | "method_not_allowed" | "upstream_unavailable";
            requestId?: string;
        } & {
            [key: string]: unknown;
        };
        S0___schema0_0: JsonValue;
        S1___schema0_0: JsonValue;
        S2___schema0_0: JsonValue;
        S3___schema0_0: JsonValue;
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    search: {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    query: string;
                    /** @default 8 */
                    topK?: number;
                    weights?: {
                        lexical?: number;
                        semantic?: number;
                        trigram?: number;
                    };
                    explain?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Best first; empty when nothing matches. */
                        results: ({
                            chunkId: string;
                            documentId: string;
                            /** @description Title of the document the chunk comes from. */
                            title: string;
                            /** @description Headings above the chunk, outermost first. */
                            headingPath: string[];
                            text: string;
                            /** @description Fused relevance score; higher is better. */
                            score: number;
                            rank: number;
                            /** @description Rank in the lexical channel; null when it did not return the chunk. */
                            lexicalRank: number | null;
                            /** @description Rank in the vector channel; null when it did not return the chunk. */
                            semanticRank: number | null;
                            url: string | null;
                            /** @description With `explain: true` only. */
                            explain?: {
                                /** @description Rank in the trigram fallback channel; null when it did not run or return the chunk. */
                                trigramRank: number | null;
                                /** @description Each channel's weight / (k + rank); they add up to the fused score before any reranking. */
                                contributions: {
                                    lexical: number;
                                    semantic: number;
                                    trigram: number;
                                } & {
                                    [key: string]: unknown;
                                };
                            } & {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        })[];
                        tookMs: number;
                        /** @description With `explain: true` only. */
                        explain?: {
                            /** @description The RRF channel weights used; 0 switches a channel off. */
                            weights: {
                                lexical: number;
                                semantic: number;
                                trigram: number;
                            } & {
                                [key: string]: unknown;
                            };
                            /** @description The k of reciprocal rank fusion: score = sum of weight / (k + rank). */
                            rrfK: number;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    answer: {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    query: string;
                    /** @enum {string} */
                    locale?: "th" | "en";
                    personaId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The answer, with [n] markers pointing to `citations`. */
                        answer: string;
                        citations: ({
                            n: number;
                            documentId: string;
                            chunkId: string;
                            title: string;
                            /** @description The section of the document the cited chunk is in, outermost heading first. */
                            headingPath: string[];
                            /** @description The document's source link, if it has one. */
                            url: string | null;
                            /** @description The cited section in the help center (`…/articles/{documentId}#{heading}`); null when the document is not published there. */
                            articleUrl: string | null;
                            snippet: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @enum {string} */
                        locale: "th" | "en";
                        /** @description False: the knowledge base holds no answer; say so rather than guess. */
                        grounded: boolean;
                        /** @description Present when the answer is a curated answer of the workspace, given verbatim. */
                        curated?: {
                            id: string;
                            /** @description The curated question the query matched. */
                            question: string;
                            /**
                             * @description Where the curated answer came from.
                             * @enum {string}
                             */
                            origin: "gap" | "feedback" | "manual";
                            originRef: string | null;
                            /** @description The documents the curated answer rests on. */
                            documentIds: string[];
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.list": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                fields?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        data: ({
                            id: string;
                            workspaceId?: string;
                            title?: string;
                            /** @description The full document, in Markdown. */
                            contentMd?: string;
                            url?: string | null;
                            publicSurfaces?: "help_center"[];
                            /** @description Who may read it: `public`, `customers`, segment names, or `["internal"]`. */
                            audiences?: string[];
                            /** @description The caller's own identifier, unique within the workspace. */
                            externalId?: string | null;
                            /** @description The caller's own fields; stored, not indexed. */
                            metadata?: {
                                [key: string]: unknown;
                            };
                            /**
                             * @description Indexing state; only "indexed" documents are searchable.
                             * @enum {string}
                             */
                            status?: "pending" | "indexing" | "indexed" | "failed";
                            error?: string | null;
                            createdAt?: string;
                            /** @description ISO 8601 time of the last change. */
                            updatedAt?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.create": {
        parameters: {
            query?: {
                wait?: unknown;
            };
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    contentMd: string;
                    /** @default null */
                    url?: string | null;
                    publicSurfaces?: "help_center"[];
                    /** @description Who may read it: `public` (help center, widget, publishable keys; the same as the help-center surface), `customers` (signed-in visitors), segment names (visitors whose identity token carries them), or `internal` (secret keys, MCP, members) alone. */
                    audiences?: string[];
                    /** @default null */
                    externalId?: string | null;
                    /** @default {} */
                    metadata?: {
                        [key: string]: components["schemas"]["S0___schema0_0"];
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        title: string;
                        /** @description The full document, in Markdown. */
                        contentMd: string;
                        url: string | null;
                        publicSurfaces: "help_center"[];
                        /** @description Who may read it: `public`, `customers`, segment names, or `["internal"]`. */
                        audiences: string[];
                        /** @description The caller's own identifier, unique within the workspace. */
                        externalId: string | null;
                        /** @description The caller's own fields; stored, not indexed. */
                        metadata: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description Indexing state; only "indexed" documents are searchable.
                         * @enum {string}
                         */
                        status: "pending" | "indexing" | "indexed" | "failed";
                        error: string | null;
                        createdAt: string;
                        /** @description ISO 8601 time of the last change. */
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.bulk": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    create?: {
                        title: string;
                        contentMd: string;
                        /** @default null */
                        url?: string | null;
                        publicSurfaces?: "help_center"[];
                        /** @description Who may read it: `public` (help center, widget, publishable keys; the same as the help-center surface), `customers` (signed-in visitors), segment names (visitors whose identity token carries them), or `internal` (secret keys, MCP, members) alone. */
                        audiences?: string[];
                        /** @default null */
                        externalId?: string | null;
                        /** @default {} */
                        metadata?: {
                            [key: string]: components["schemas"]["S1___schema0_0"];
                        };
                    }[];
                    update?: {
                        id: string;
                        title?: string;
                        contentMd?: string;
                        url?: string | null;
                        publicSurfaces?: "help_center"[];
                        /** @description Who may read it: `public` (help center, widget, publishable keys; the same as the help-center surface), `customers` (signed-in visitors), segment names (visitors whose identity token carries them), or `internal` (secret keys, MCP, members) alone. */
                        audiences?: string[];
                        externalId?: string | null;
                        metadata?: {
                            [key: string]: components["schemas"]["S1___schema0_0"];
                        };
                    }[];
                    delete?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: ({
                            /** @enum {string} */
                            op: "create" | "update" | "delete";
                            index: number;
                            id: string;
                            /** @enum {string} */
                            status: "created" | "updated" | "deleted";
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        title: string;
                        /** @description The full document, in Markdown. */
                        contentMd: string;
                        url: string | null;
                        publicSurfaces: "help_center"[];
                        /** @description Who may read it: `public`, `customers`, segment names, or `["internal"]`. */
                        audiences: string[];
                        /** @description The caller's own identifier, unique within the workspace. */
                        externalId: string | null;
                        /** @description The caller's own fields; stored, not indexed. */
                        metadata: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description Indexing state; only "indexed" documents are searchable.
                         * @enum {string}
                         */
                        status: "pending" | "indexing" | "indexed" | "failed";
                        error: string | null;
                        createdAt: string;
                        /** @description ISO 8601 time of the last change. */
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.update": {
        parameters: {
            query?: {
                wait?: unknown;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string;
                    contentMd?: string;
                    url?: string | null;
                    publicSurfaces?: "help_center"[];
                    /** @description Who may read it: `public` (help center, widget, publishable keys; the same as the help-center surface), `customers` (signed-in visitors), segment names (visitors whose identity token carries them), or `internal` (secret keys, MCP, members) alone. */
                    audiences?: string[];
                    externalId?: string | null;
                    metadata?: {
                        [key: string]: components["schemas"]["S2___schema0_0"];
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        title: string;
                        /** @description The full document, in Markdown. */
                        contentMd: string;
                        url: string | null;
                        publicSurfaces: "help_center"[];
                        /** @description Who may read it: `public`, `customers`, segment names, or `["internal"]`. */
                        audiences: string[];
                        /** @description The caller's own identifier, unique within the workspace. */
                        externalId: string | null;
                        /** @description The caller's own fields; stored, not indexed. */
                        metadata: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description Indexing state; only "indexed" documents are searchable.
                         * @enum {string}
                         */
                        status: "pending" | "indexing" | "indexed" | "failed";
                        error: string | null;
                        createdAt: string;
                        /** @description ISO 8601 time of the last change. */
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.reindex": {
        parameters: {
            query?: {
                wait?: unknown;
            };
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        title: string;
                        /** @description The full document, in Markdown. */
                        contentMd: string;
                        url: string | null;
                        publicSurfaces: "help_center"[];
                        /** @description Who may read it: `public`, `customers`, segment names, or `["internal"]`. */
                        audiences: string[];
                        /** @description The caller's own identifier, unique within the workspace. */
                        externalId: string | null;
                        /** @description The caller's own fields; stored, not indexed. */
                        metadata: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description Indexing state; only "indexed" documents are searchable.
                         * @enum {string}
                         */
                        status: "pending" | "indexing" | "indexed" | "failed";
                        error: string | null;
                        createdAt: string;
                        /** @description ISO 8601 time of the last change. */
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.getByExternalId": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                externalId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        title: string;
                        /** @description The full document, in Markdown. */
                        contentMd: string;
                        url: string | null;
                        publicSurfaces: "help_center"[];
                        /** @description Who may read it: `public`, `customers`, segment names, or `["internal"]`. */
                        audiences: string[];
                        /** @description The caller's own identifier, unique within the workspace. */
                        externalId: string | null;
                        /** @description The caller's own fields; stored, not indexed. */
                        metadata: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description Indexing state; only "indexed" documents are searchable.
                         * @enum {string}
                         */
                        status: "pending" | "indexing" | "indexed" | "failed";
                        error: string | null;
                        createdAt: string;
                        /** @description ISO 8601 time of the last change. */
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.putByExternalId": {
        parameters: {
            query?: {
                wait?: unknown;
            };
            header?: never;
            path: {
                externalId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    contentMd: string;
                    /** @default null */
                    url?: string | null;
                    publicSurfaces?: "help_center"[];
                    /** @description Who may read it: `public` (help center, widget, publishable keys; the same as the help-center surface), `customers` (signed-in visitors), segment names (visitors whose identity token carries them), or `internal` (secret keys, MCP, members) alone. */
                    audiences?: string[];
                    /** @default {} */
                    metadata?: {
                        [key: string]: components["schemas"]["S3___schema0_0"];
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        title: string;
                        /** @description The full document, in Markdown. */
                        contentMd: string;
                        url: string | null;
                        publicSurfaces: "help_center"[];
                        /** @description Who may read it: `public`, `customers`, segment names, or `["internal"]`. */
                        audiences: string[];
                        /** @description The caller's own identifier, unique within the workspace. */
                        externalId: string | null;
                        /** @description The caller's own fields; stored, not indexed. */
                        metadata: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description Indexing state; only "indexed" documents are searchable.
                         * @enum {string}
                         */
                        status: "pending" | "indexing" | "indexed" | "failed";
                        error: string | null;
                        createdAt: string;
                        /** @description ISO 8601 time of the last change. */
                        updatedAt: string;
                        /** @enum {string} */
                        sync: "created" | "updated" | "unchanged";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.deleteByExternalId": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                externalId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "workspaces.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            id: string;
                            slug: string;
                            name: string;
                            brandAccent: string | null;
                            isDefault: boolean;
                            deletedAt: string | null;
                            /** @description Set while a downgrade keeps the workspace over the plan cap: data kept, nothing served until an upgrade. */
                            suspendedAt?: string | null;
                            createdAt: string;
                            updatedAt: string;
                            /** @description Until when a soft-deleted workspace can be restored; null while live. */
                            recoverUntil: string | null;
                            /** @description Whole days left to restore; null while live. */
                            daysLeft: number | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description Enterprise flag; stored, linking not implemented. */
                        crossWorkspaceVisitorLinking: {
                            enabled: boolean;
                            implemented: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "workspaces.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slug: string;
                    name: string;
                    brandAccent?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        slug: string;
                        name: string;
                        brandAccent: string | null;
                        isDefault: boolean;
                        deletedAt: string | null;
                        /** @description Set while a downgrade keeps the workspace over the plan cap: data kept, nothing served until an upgrade. */
                        suspendedAt?: string | null;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Until when a soft-deleted workspace can be restored; null while live. */
                        recoverUntil: string | null;
                        /** @description Whole days left to restore; null while live. */
                        daysLeft: number | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "workspaces.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        slug: string;
                        name: string;
                        brandAccent: string | null;
                        isDefault: boolean;
                        deletedAt: string | null;
                        /** @description Set while a downgrade keeps the workspace over the plan cap: data kept, nothing served until an upgrade. */
                        suspendedAt?: string | null;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Until when a soft-deleted workspace can be restored; null while live. */
                        recoverUntil: string | null;
                        /** @description Whole days left to restore; null while live. */
                        daysLeft: number | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "workspaces.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        slug: string;
                        name: string;
                        brandAccent: string | null;
                        isDefault: boolean;
                        deletedAt: string | null;
                        /** @description Set while a downgrade keeps the workspace over the plan cap: data kept, nothing served until an upgrade. */
                        suspendedAt?: string | null;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Until when a soft-deleted workspace can be restored; null while live. */
                        recoverUntil: string | null;
                        /** @description Whole days left to restore; null while live. */
                        daysLeft: number | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "workspaces.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    brandAccent?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        slug: string;
                        name: string;
                        brandAccent: string | null;
                        isDefault: boolean;
                        deletedAt: string | null;
                        /** @description Set while a downgrade keeps the workspace over the plan cap: data kept, nothing served until an upgrade. */
                        suspendedAt?: string | null;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Until when a soft-deleted workspace can be restored; null while live. */
                        recoverUntil: string | null;
                        /** @description Whole days left to restore; null while live. */
                        daysLeft: number | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "workspaces.restore": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        slug: string;
                        name: string;
                        brandAccent: string | null;
                        isDefault: boolean;
                        deletedAt: string | null;
                        /** @description Set while a downgrade keeps the workspace over the plan cap: data kept, nothing served until an upgrade. */
                        suspendedAt?: string | null;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Until when a soft-deleted workspace can be restored; null while live. */
                        recoverUntil: string | null;
                        /** @description Whole days left to restore; null while live. */
                        daysLeft: number | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "hostnames.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            id: string;
                            /** @description Lower-case ASCII (punycode) form. */
                            hostname: string;
                            /** @enum {string} */
                            status: "pending" | "verifying_dns" | "active" | "failed" | "inactive";
                            /** @description Pending, Verifying DNS, Active, Failed or Inactive. */
                            statusLabel: string;
                            /** @description Null while registration at the edge has never succeeded. */
                            edgeHostnameId: string | null;
                            verificationError: ("dns_not_propagated" | "txt_mismatch" | "already_registered" | "edge_refused") | null;
                            /** @description The inline message for the verification error. */
                            verificationMessage: {
                                en: string;
                                th: string;
                            } | null;
                            dns: {
                                cname: {
                                    name: string;
                                    target: string;
                                };
                                txt: {
                                    name: string;
                                    value: string;
                                };
                                note: string;
                            };
                            /** @description Verifying DNS for more than 24 hours. */
                            stale: boolean;
                            lastCheckedAt: string | null;
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "hostnames.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description e.g. help.example.com; Unicode names are converted to punycode. */
                    hostname: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description Lower-case ASCII (punycode) form. */
                        hostname: string;
                        /** @enum {string} */
                        status: "pending" | "verifying_dns" | "active" | "failed" | "inactive";
                        /** @description Pending, Verifying DNS, Active, Failed or Inactive. */
                        statusLabel: string;
                        /** @description Null while registration at the edge has never succeeded. */
                        edgeHostnameId: string | null;
                        verificationError: ("dns_not_propagated" | "txt_mismatch" | "already_registered" | "edge_refused") | null;
                        /** @description The inline message for the verification error. */
                        verificationMessage: {
                            en: string;
                            th: string;
                        } | null;
                        dns: {
                            cname: {
                                name: string;
                                target: string;
                            };
                            txt: {
                                name: string;
                                value: string;
                            };
                            note: string;
                        };
                        /** @description Verifying DNS for more than 24 hours. */
                        stale: boolean;
                        lastCheckedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "hostnames.check": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description Lower-case ASCII (punycode) form. */
                        hostname: string;
                        /** @enum {string} */
                        status: "pending" | "verifying_dns" | "active" | "failed" | "inactive";
                        /** @description Pending, Verifying DNS, Active, Failed or Inactive. */
                        statusLabel: string;
                        /** @description Null while registration at the edge has never succeeded. */
                        edgeHostnameId: string | null;
                        verificationError: ("dns_not_propagated" | "txt_mismatch" | "already_registered" | "edge_refused") | null;
                        /** @description The inline message for the verification error. */
                        verificationMessage: {
                            en: string;
                            th: string;
                        } | null;
                        dns: {
                            cname: {
                                name: string;
                                target: string;
                            };
                            txt: {
                                name: string;
                                value: string;
                            };
                            note: string;
                        };
                        /** @description Verifying DNS for more than 24 hours. */
                        stale: boolean;
                        lastCheckedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "hostnames.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description Lower-case ASCII (punycode) form. */
                        hostname: string;
                        /** @enum {string} */
                        status: "pending" | "verifying_dns" | "active" | "failed" | "inactive";
                        /** @description Pending, Verifying DNS, Active, Failed or Inactive. */
                        statusLabel: string;
                        /** @description Null while registration at the edge has never succeeded. */
                        edgeHostnameId: string | null;
                        verificationError: ("dns_not_propagated" | "txt_mismatch" | "already_registered" | "edge_refused") | null;
                        /** @description The inline message for the verification error. */
                        verificationMessage: {
                            en: string;
                            th: string;
                        } | null;
                        dns: {
                            cname: {
                                name: string;
                                target: string;
                            };
                            txt: {
                                name: string;
                                value: string;
                            };
                            note: string;
                        };
                        /** @description Verifying DNS for more than 24 hours. */
                        stale: boolean;
                        lastCheckedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "billing.checkout": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    plan: string;
                    /**
                     * @default month
                     * @enum {string}
                     */
                    interval?: "month" | "year";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        url: string;
                        sessionId: string;
                    } & {
                        [key: string]: unknown;
                    }) | ({
                        /** @constant */
                        changed: true;
                        subscriptionId: string;
                        plan: string;
                        interval: string;
                    } & {
                        [key: string]: unknown;
                    });
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "billing.seat_addon": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    seats: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        seats: number;
                        addonSeats: number;
                        monthlySatang: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "billing.usage": {
        parameters: {
            query?: {
                period?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        period: string;
                        billingConfigured: boolean;
                        resolutions: number;
                        apiQueries: number;
                        projectedSatang: number | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "billing.resolutions": {
        parameters: {
            query?: {
                period?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        period: string;
                        data: ({
                            id: string;
                            state: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "billing.resolutions.dispute": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        state: "disputed";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "flows.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            id: string;
                            workspaceId: string;
                            name: string;
                            steps: ({
                                title: string;
                                instructions: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "flows.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    steps: {
                        title: string;
                        /** @default null */
                        instructions?: string | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        steps: ({
                            title: string;
                            instructions: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "flows.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        steps: ({
                            title: string;
                            instructions: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "flows.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        deleted: true;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "flows.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    steps?: {
                        title: string;
                        /** @default null */
                        instructions?: string | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        steps: ({
                            title: string;
                            instructions: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "flows.start_run": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default null */
                    conversationId?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        flowId: string;
                        workspaceId: string;
                        conversationId: string | null;
                        /** @enum {string} */
                        status: "started" | "drafted" | "completed";
                        draft: string | null;
                        createdAt: string;
                        draftedAt: string | null;
                        completedAt: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "flows.get_run": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        flowId: string;
                        workspaceId: string;
                        conversationId: string | null;
                        /** @enum {string} */
                        status: "started" | "drafted" | "completed";
                        draft: string | null;
                        createdAt: string;
                        draftedAt: string | null;
                        completedAt: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "flows.draft_run": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        flowId: string;
                        workspaceId: string;
                        conversationId: string | null;
                        /** @enum {string} */
                        status: "started" | "drafted" | "completed";
                        draft: string | null;
                        createdAt: string;
                        draftedAt: string | null;
                        completedAt: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "flows.complete_run": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        flowId: string;
                        workspaceId: string;
                        conversationId: string | null;
                        /** @enum {string} */
                        status: "started" | "drafted" | "completed";
                        draft: string | null;
                        createdAt: string;
                        draftedAt: string | null;
                        completedAt: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "conversations.list": {
        parameters: {
            query?: {
                status?: "open" | "handed_off";
                tag?: string;
                since?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        data: ({
                            id: string;
                            workspaceId: string;
                            /** @enum {string} */
                            status: "open" | "handed_off";
                            /** @enum {string} */
                            locale: "th" | "en";
                            hasGroundedAnswer: boolean;
                            hasUngroundedAnswer: boolean;
                            /** @description Any thumbs-down disqualifies the conversation from being a resolution. */
                            hasThumbsDown: boolean;
                            handedOff: boolean;
                            visitorId: string | null;
                            csat: ({
                                score: number;
                                comment: string | null;
                                at: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            tags: string[];
                            createdAt: string;
                            lastMessageAt: string;
                            /** @description In lists: the opening question (its first 200 characters), so conversations can be told apart. */
                            firstQuestion?: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "conversations.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        /** @enum {string} */
                        status: "open" | "handed_off";
                        /** @enum {string} */
                        locale: "th" | "en";
                        hasGroundedAnswer: boolean;
                        hasUngroundedAnswer: boolean;
                        /** @description Any thumbs-down disqualifies the conversation from being a resolution. */
                        hasThumbsDown: boolean;
                        handedOff: boolean;
                        visitorId: string | null;
                        csat: ({
                            score: number;
                            comment: string | null;
                            at: string;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        tags: string[];
                        createdAt: string;
                        lastMessageAt: string;
                        /** @description In lists: the opening question (its first 200 characters), so conversations can be told apart. */
                        firstQuestion?: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "conversations.messages": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Oldest first. */
                        data: ({
                            id: string;
                            conversationId: string;
                            /** @enum {string} */
                            role: "user" | "assistant";
                            content: string;
                            /** @description headingPath and articleUrl are absent on messages stored before citations carried them. */
                            citations: ({
                                n: number;
                                documentId: string;
                                chunkId: string;
                                title: string;
                                /** @description The section of the document the cited chunk is in, outermost heading first. */
                                headingPath?: string[];
                                /** @description The document's source link, if it has one. */
                                url: string | null;
                                /** @description The cited section in the help center (`…/articles/{documentId}#{heading}`); null when the document is not published there. */
                                articleUrl?: string | null;
                                snippet: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            grounded: boolean | null;
                            feedback: ({
                                /** @enum {string} */
                                rating: "up" | "down";
                                comment: string | null;
                                at: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            createdAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` (or to poll as `after`) to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "conversations.poll": {
        parameters: {
            query?: {
                after?: string;
                timeout?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Oldest first. */
                        data: ({
                            id: string;
                            conversationId: string;
                            /** @enum {string} */
                            role: "user" | "assistant";
                            content: string;
                            /** @description headingPath and articleUrl are absent on messages stored before citations carried them. */
                            citations: ({
                                n: number;
                                documentId: string;
                                chunkId: string;
                                title: string;
                                /** @description The section of the document the cited chunk is in, outermost heading first. */
                                headingPath?: string[];
                                /** @description The document's source link, if it has one. */
                                url: string | null;
                                /** @description The cited section in the help center (`…/articles/{documentId}#{heading}`); null when the document is not published there. */
                                articleUrl?: string | null;
                                snippet: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            grounded: boolean | null;
                            feedback: ({
                                /** @enum {string} */
                                rating: "up" | "down";
                                comment: string | null;
                                at: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            createdAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` (or to poll as `after`) to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "conversations.csat": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    score: number;
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        /** @enum {string} */
                        status: "open" | "handed_off";
                        /** @enum {string} */
                        locale: "th" | "en";
                        hasGroundedAnswer: boolean;
                        hasUngroundedAnswer: boolean;
                        /** @description Any thumbs-down disqualifies the conversation from being a resolution. */
                        hasThumbsDown: boolean;
                        handedOff: boolean;
                        visitorId: string | null;
                        csat: ({
                            score: number;
                            comment: string | null;
                            at: string;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        tags: string[];
                        createdAt: string;
                        lastMessageAt: string;
                        /** @description In lists: the opening question (its first 200 characters), so conversations can be told apart. */
                        firstQuestion?: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "conversations.tags.list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tags: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "conversations.tags.add": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tags: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tags: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "conversations.tags.remove": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tags: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tags: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "messages.feedback": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    rating: "up" | "down";
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        conversationId: string;
                        /** @enum {string} */
                        role: "user" | "assistant";
                        content: string;
                        /** @description headingPath and articleUrl are absent on messages stored before citations carried them. */
                        citations: ({
                            n: number;
                            documentId: string;
                            chunkId: string;
                            title: string;
                            /** @description The section of the document the cited chunk is in, outermost heading first. */
                            headingPath?: string[];
                            /** @description The document's source link, if it has one. */
                            url: string | null;
                            /** @description The cited section in the help center (`…/articles/{documentId}#{heading}`); null when the document is not published there. */
                            articleUrl?: string | null;
                            snippet: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        grounded: boolean | null;
                        feedback: ({
                            /** @enum {string} */
                            rating: "up" | "down";
                            comment: string | null;
                            at: string;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        createdAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tickets.list": {
        parameters: {
            query?: {
                status?: "open" | "closed";
                priority?: "low" | "normal" | "high" | "urgent";
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        data: ({
                            id: string;
                            workspaceId: string;
                            subject: string;
                            body: string;
                            /** @enum {string} */
                            priority: "low" | "normal" | "high" | "urgent";
                            /** @enum {string} */
                            status: "open" | "closed";
                            conversationId: string | null;
                            visitorId: string | null;
                            /** @description When the SLA of its priority runs out (from creation, or the last reopen). */
                            dueAt: string;
                            /** @description When the SLA check found it open past `dueAt`; null while within SLA. */
                            breachedAt: string | null;
                            closedAt: string | null;
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tickets.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    subject: string;
                    body: string;
                    /**
                     * @default normal
                     * @enum {string}
                     */
                    priority?: "low" | "normal" | "high" | "urgent";
                    conversationId?: string;
                    visitorId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        subject: string;
                        body: string;
                        /** @enum {string} */
                        priority: "low" | "normal" | "high" | "urgent";
                        /** @enum {string} */
                        status: "open" | "closed";
                        conversationId: string | null;
                        visitorId: string | null;
                        /** @description When the SLA of its priority runs out (from creation, or the last reopen). */
                        dueAt: string;
                        /** @description When the SLA check found it open past `dueAt`; null while within SLA. */
                        breachedAt: string | null;
                        closedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tickets.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        subject: string;
                        body: string;
                        /** @enum {string} */
                        priority: "low" | "normal" | "high" | "urgent";
                        /** @enum {string} */
                        status: "open" | "closed";
                        conversationId: string | null;
                        visitorId: string | null;
                        /** @description When the SLA of its priority runs out (from creation, or the last reopen). */
                        dueAt: string;
                        /** @description When the SLA check found it open past `dueAt`; null while within SLA. */
                        breachedAt: string | null;
                        closedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Oldest first. */
                        comments: ({
                            id: string;
                            ticketId: string;
                            body: string;
                            author: string;
                            createdAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tickets.close": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        subject: string;
                        body: string;
                        /** @enum {string} */
                        priority: "low" | "normal" | "high" | "urgent";
                        /** @enum {string} */
                        status: "open" | "closed";
                        conversationId: string | null;
                        visitorId: string | null;
                        /** @description When the SLA of its priority runs out (from creation, or the last reopen). */
                        dueAt: string;
                        /** @description When the SLA check found it open past `dueAt`; null while within SLA. */
                        breachedAt: string | null;
                        closedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Oldest first. */
                        comments: ({
                            id: string;
                            ticketId: string;
                            body: string;
                            author: string;
                            createdAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tickets.reopen": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        subject: string;
                        body: string;
                        /** @enum {string} */
                        priority: "low" | "normal" | "high" | "urgent";
                        /** @enum {string} */
                        status: "open" | "closed";
                        conversationId: string | null;
                        visitorId: string | null;
                        /** @description When the SLA of its priority runs out (from creation, or the last reopen). */
                        dueAt: string;
                        /** @description When the SLA check found it open past `dueAt`; null while within SLA. */
                        breachedAt: string | null;
                        closedAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Oldest first. */
                        comments: ({
                            id: string;
                            ticketId: string;
                            body: string;
                            author: string;
                            createdAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tickets.comment": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        ticketId: string;
                        body: string;
                        author: string;
                        createdAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "personas.list": {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        data: ({
                            id: string;
                            workspaceId: string;
                            name: string;
                            tone: string;
                            instructions: string;
                            /** @description Answers are written in this locale; null: the question’s own. */
                            locale: ("th" | "en") | null;
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "personas.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @default  */
                    tone?: string;
                    /** @default  */
                    instructions?: string;
                    /** @default null */
                    locale?: ("th" | "en") | null;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        tone: string;
                        instructions: string;
                        /** @description Answers are written in this locale; null: the question’s own. */
                        locale: ("th" | "en") | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "personas.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        tone: string;
                        instructions: string;
                        /** @description Answers are written in this locale; null: the question’s own. */
                        locale: ("th" | "en") | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "personas.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "personas.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    tone?: string;
                    instructions?: string;
                    locale?: ("th" | "en") | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        tone: string;
                        instructions: string;
                        /** @description Answers are written in this locale; null: the question’s own. */
                        locale: ("th" | "en") | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "conversations.visitor": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    email?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string | null;
                        email: string | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "visitors.list": {
        parameters: {
            query?: {
                email?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        data: ({
                            id: string;
                            workspaceId: string;
                            name: string | null;
                            email: string | null;
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "visitors.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string | null;
                        email: string | null;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Latest first, at most 100. */
                        conversationIds: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "customers.list": {
        parameters: {
            query?: {
                domain?: string;
                externalId?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        data: ({
                            id: string;
                            workspaceId: string;
                            name: string;
                            domain: string | null;
                            externalId: string | null;
                            notes: string;
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "customers.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description E-mail domain: visitors at this domain belong to the customer. */
                    domain?: string | null;
                    /**
                     * @description The customer's id in your own systems (a CRM).
                     * @default null
                     */
                    externalId?: string | null;
                    /** @default  */
                    notes?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        domain: string | null;
                        externalId: string | null;
                        notes: string;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "customers.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        domain: string | null;
                        externalId: string | null;
                        notes: string;
                        createdAt: string;
                        updatedAt: string;
                        /** @description Visitors of the workspace whose e-mail is at the customer's domain, newest first, at most 100. */
                        visitors: ({
                            id: string;
                            workspaceId: string;
                            name: string | null;
                            email: string | null;
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "customers.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "customers.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    domain?: string | null;
                    externalId?: string | null;
                    notes?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        domain: string | null;
                        externalId: string | null;
                        notes: string;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "inbox.list": {
        parameters: {
            query?: {
                reason?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        data: ({
                            /** @enum {string} */
                            reason: "sla_breach" | "open_ticket" | "thumbs_down" | "ungrounded";
                            /** @enum {string} */
                            kind: "ticket" | "conversation";
                            id: string;
                            conversationId: string | null;
                            ticketId: string | null;
                            title: string;
                            priority: ("low" | "normal" | "high" | "urgent") | null;
                            at: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tenant.erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The tenant's slug, typed again: erasure cannot be undone. */
                    confirm: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        slug: string;
                        tenantId: string;
                        /** @description Active at erasure: they answer 410 Gone; their edge registrations stay until an operator removes them. */
                        hostnames: string[];
                        erasedAt: string;
                        /** @description Rows removed, by table. */
                        deleted: {
                            [key: string]: number;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tenant.settings.get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Origins whose pages may call the API (CORS); publishable keys work only from these. */
                        allowedOrigins: string[];
                        connectorWebhook: {
                            secretSet: boolean;
                            secretCreatedAt: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tenant.settings.update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    allowedOrigins: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Origins whose pages may call the API (CORS); publishable keys work only from these. */
                        allowedOrigins: string[];
                        connectorWebhook: {
                            secretSet: boolean;
                            secretCreatedAt: string | null;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tenant.connectorSecret.rotate": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Shown once: sign webhook deliveries with it. */
                        secret: string;
                        createdAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "apiKeys.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            id: string;
                            /**
                             * @description `secret` (svc_live_…, servers) or `publishable` (svc_pub_…, pages on allowed origins).
                             * @enum {string}
                             */
                            kind: "secret" | "publishable";
                            name: string;
                            /** @description The first characters of the key, to tell keys apart; never enough to authenticate. */
                            prefix: string;
                            scopes: ("read" | "write" | "mcp" | "admin")[];
                            /** @description Null: every workspace of the tenant. */
                            workspaceId: string | null;
                            workspaceSlug: string | null;
                            createdAt: string;
                            revokedAt: string | null;
                            /** @description When the key last authenticated a request, to the minute; null: never used. */
                            lastUsedAt: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "apiKeys.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default API key */
                    name?: string;
                    scopes: ("read" | "write" | "mcp" | "admin")[];
                    workspaceSlug?: string;
                    /**
                     * @default secret
                     * @enum {string}
                     */
                    kind?: "secret" | "publishable";
                    /** @enum {string} */
                    surface?: "help_center";
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /**
                         * @description `secret` (svc_live_…, servers) or `publishable` (svc_pub_…, pages on allowed origins).
                         * @enum {string}
                         */
                        kind: "secret" | "publishable";
                        name: string;
                        /** @description The first characters of the key, to tell keys apart; never enough to authenticate. */
                        prefix: string;
                        scopes: ("read" | "write" | "mcp" | "admin")[];
                        /** @description Null: every workspace of the tenant. */
                        workspaceId: string | null;
                        workspaceSlug: string | null;
                        createdAt: string;
                        revokedAt: string | null;
                        /** @description When the key last authenticated a request, to the minute; null: never used. */
                        lastUsedAt: string | null;
                        /** @description The full key: shown once, never stored or shown again. */
                        key: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "apiKeys.revoke": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    me: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        kind: "api_key" | "user" | "system";
                        /** @description The key id or user id. */
                        id: string;
                        /** @description A signed-in user's role; null for keys. */
                        role: ("owner" | "admin" | "editor" | "viewer") | null;
                        scopes: ("read" | "write" | "mcp" | "admin")[];
                        /** @description False: bound to one workspace. */
                        tenantWide: boolean;
                        tenant: {
                            slug: string;
                            plan: string;
                        } & {
                            [key: string]: unknown;
                        };
                        workspace: {
                            id: string;
                            slug: string;
                            name: string;
                            brandAccent: string | null;
                            isDefault: boolean;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "widget.config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The workspace's name (the widget's title). */
                        name: string;
                        /** @description The workspace's brand accent colour, e.g. #2f6feb. */
                        brandAccent: string | null;
                        /** @description The help center home page, when citations link to it. */
                        helpCenterUrl: string | null;
                        /** @description A cited article's page with {documentId} to replace; null for a key that may read unpublished documents (a secret key or a session), which have no public page. */
                        articleUrl: string | null;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "workspaces.visitorIdentity.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        algorithm: "HS256" | "EdDSA";
                        /** @description The key's last four characters; the key itself is never shown again. */
                        keyHint: string;
                        issuer: string | null;
                        /** @description The `aud` tokens must carry. */
                        audience: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "workspaces.visitorIdentity.put": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description `HS256` (a shared secret of at least 32 bytes) or `EdDSA` (an Ed25519 public key, SPKI PEM).
                     * @enum {string}
                     */
                    algorithm: "HS256" | "EdDSA";
                    /** @description The HS256 secret, or the Ed25519 public key in PEM. Reads show it masked. */
                    key: string;
                    /**
                     * @description The `iss` every token must carry; null: any.
                     * @default null
                     */
                    issuer?: string | null;
                    /**
                     * @description The `aud` every token must carry; null: the workspace's id.
                     * @default null
                     */
                    audience?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        algorithm: "HS256" | "EdDSA";
                        /** @description The key's last four characters; the key itself is never shown again. */
                        keyHint: string;
                        issuer: string | null;
                        /** @description The `aud` tokens must carry. */
                        audience: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "workspaces.visitorIdentity.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "curated_answers.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            id: string;
                            workspaceId: string;
                            question: string;
                            paraphrases: string[];
                            /** @description Given verbatim to a matching query. */
                            answer: string;
                            documentIds: string[];
                            /** @enum {string} */
                            origin: "gap" | "feedback" | "manual";
                            originRef: string | null;
                            createdBy: string | null;
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "curated_answers.create": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    question: string;
                    /** @default [] */
                    paraphrases?: string[];
                    answer: string;
                    /** @default [] */
                    documentIds?: string[];
                    /**
                     * @description Where it came from: a content gap, a feedback item, or written by hand.
                     * @default manual
                     * @enum {string}
                     */
                    origin?: "gap" | "feedback" | "manual";
                    /**
                     * @description The gap cluster or feedback item id it was created from.
                     * @default null
                     */
                    originRef?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        question: string;
                        paraphrases: string[];
                        /** @description Given verbatim to a matching query. */
                        answer: string;
                        documentIds: string[];
                        /** @enum {string} */
                        origin: "gap" | "feedback" | "manual";
                        originRef: string | null;
                        createdBy: string | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "curated_answers.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        question: string;
                        paraphrases: string[];
                        /** @description Given verbatim to a matching query. */
                        answer: string;
                        documentIds: string[];
                        /** @enum {string} */
                        origin: "gap" | "feedback" | "manual";
                        originRef: string | null;
                        createdBy: string | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "curated_answers.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        deleted: true;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "curated_answers.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    question?: string;
                    paraphrases?: string[];
                    answer?: string;
                    documentIds?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        question: string;
                        paraphrases: string[];
                        /** @description Given verbatim to a matching query. */
                        answer: string;
                        documentIds: string[];
                        /** @enum {string} */
                        origin: "gap" | "feedback" | "manual";
                        originRef: string | null;
                        createdBy: string | null;
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "eval.list_sets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            id: string;
                            workspaceId: string;
                            name: string;
                            questions: ({
                                id: string;
                                question: string;
                                documentIds: string[];
                                /** @enum {string} */
                                source: "manual" | "curated" | "feedback" | "import";
                            } & {
                                [key: string]: unknown;
                            })[];
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "eval.create_set": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @default [] */
                    questions?: {
                        id?: string;
                        question: string;
                        documentIds: string[];
                    }[];
                    /**
                     * @description Add questions from the curated answers (with their documents) and from answers rated thumbs-up (with the documents they cited).
                     * @default []
                     */
                    seed?: ("curated" | "feedback")[];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        questions: ({
                            id: string;
                            question: string;
                            documentIds: string[];
                            /** @enum {string} */
                            source: "manual" | "curated" | "feedback" | "import";
                        } & {
                            [key: string]: unknown;
                        })[];
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "eval.get_set": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        questions: ({
                            id: string;
                            question: string;
                            documentIds: string[];
                            /** @enum {string} */
                            source: "manual" | "curated" | "feedback" | "import";
                        } & {
                            [key: string]: unknown;
                        })[];
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "eval.delete_set": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @constant */
                        deleted: true;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "eval.update_set": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    questions?: {
                        id?: string;
                        question: string;
                        documentIds: string[];
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        questions: ({
                            id: string;
                            question: string;
                            documentIds: string[];
                            /** @enum {string} */
                            source: "manual" | "curated" | "feedback" | "import";
                        } & {
                            [key: string]: unknown;
                        })[];
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "eval.import_set": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description One JSON object per line: {"question": "…", "documentIds": ["doc_…"], "id"?: "…"}. */
                    jsonl: string;
                    /**
                     * @description Replace the set's questions instead of adding to them.
                     * @default false
                     */
                    replace?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        name: string;
                        questions: ({
                            id: string;
                            question: string;
                            documentIds: string[];
                            /** @enum {string} */
                            source: "manual" | "curated" | "feedback" | "import";
                        } & {
                            [key: string]: unknown;
                        })[];
                        createdAt: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "eval.list_runs": {
        parameters: {
            query?: {
                setId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: ({
                            id: string;
                            workspaceId: string;
                            setId: string;
                            /** @enum {string} */
                            status: "running" | "done" | "failed";
                            weights: ({
                                lexical?: number;
                                semantic?: number;
                                trigram?: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            metrics: ({
                                hitAt1: number;
                                hitAt5: number;
                                /** @description Mean reciprocal rank of the first expected document (top 10). */
                                mrr: number;
                                ndcgAt10: number;
                                /** @description Share of cited documents that are expected ones; null when nothing was cited or citations were not scored. */
                                citationAccuracy: number | null;
                                questions: number;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            previousRunId: string | null;
                            error: string | null;
                            createdAt: string;
                            finishedAt: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "eval.start_run": {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key and body gets the first response (`Idempotent-Replayed: true`); the same key with another body, or while the first is running, is 409. Keys are kept 24 hours. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    setId: string;
                    weights?: {
                        lexical?: number;
                        semantic?: number;
                        trigram?: number;
                    };
                    /**
                     * @description Also generate each answer and score its citations (false: retrieval only).
                     * @default true
                     */
                    citations?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        setId: string;
                        /** @enum {string} */
                        status: "running" | "done" | "failed";
                        weights: ({
                            lexical?: number;
                            semantic?: number;
                            trigram?: number;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        metrics: ({
                            hitAt1: number;
                            hitAt5: number;
                            /** @description Mean reciprocal rank of the first expected document (top 10). */
                            mrr: number;
                            ndcgAt10: number;
                            /** @description Share of cited documents that are expected ones; null when nothing was cited or citations were not scored. */
                            citationAccuracy: number | null;
                            questions: number;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        previousRunId: string | null;
                        error: string | null;
                        createdAt: string;
                        finishedAt: string | null;
                        results: ({
                            questionId: string;
                            question: string;
                            rank: number | null;
                            reciprocalRank: number;
                            ndcgAt10: number;
                            cited: string[] | null;
                            citationAccuracy: number | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description Compared with the set's previous finished run; null for the first. */
                        diff: ({
                            previousRunId: string;
                            /** @description This run minus the previous one, per metric. */
                            metrics: {
                                [key: string]: number | null;
                            };
                            wins: ({
                                questionId: string;
                                question: string;
                                before: number | null;
                                after: number | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            losses: ({
                                questionId: string;
                                question: string;
                                before: number | null;
                                after: number | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            unchanged: number;
                            added: number;
                            removed: number;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "eval.get_run": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        workspaceId: string;
                        setId: string;
                        /** @enum {string} */
                        status: "running" | "done" | "failed";
                        weights: ({
                            lexical?: number;
                            semantic?: number;
                            trigram?: number;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        metrics: ({
                            hitAt1: number;
                            hitAt5: number;
                            /** @description Mean reciprocal rank of the first expected document (top 10). */
                            mrr: number;
                            ndcgAt10: number;
                            /** @description Share of cited documents that are expected ones; null when nothing was cited or citations were not scored. */
                            citationAccuracy: number | null;
                            questions: number;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                        previousRunId: string | null;
                        error: string | null;
                        createdAt: string;
                        finishedAt: string | null;
                        results: ({
                            questionId: string;
                            question: string;
                            rank: number | null;
                            reciprocalRank: number;
                            ndcgAt10: number;
                            cited: string[] | null;
                            citationAccuracy: number | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description Compared with the set's previous finished run; null for the first. */
                        diff: ({
                            previousRunId: string;
                            /** @description This run minus the previous one, per metric. */
                            metrics: {
                                [key: string]: number | null;
                            };
                            wins: ({
                                questionId: string;
                                question: string;
                                before: number | null;
                                after: number | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            losses: ({
                                questionId: string;
                                question: string;
                                before: number | null;
                                after: number | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            unchanged: number;
                            added: number;
                            removed: number;
                        } & {
                            [key: string]: unknown;
                        }) | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "insights.gaps": {
        parameters: {
            query?: {
                period?: "7d" | "30d" | "90d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        period: "7d" | "30d" | "90d";
                        /** @description When these clusters were computed; null before the first computation. */
                        computedAt: string | null;
                        stale: boolean;
                        /** @description A recomputation is queued or running. */
                        recomputing: boolean;
                        /** @description Questions of the period that were refused, weakly grounded, thumbed down or handed off. */
                        questions: number;
                        data: ({
                            id: string;
                            /** @description The cluster’s most frequent terms (index form). */
                            terms: string[];
                            count: number;
                            /** @description Questions of the previous period that fall in this cluster. */
                            previousCount: number;
                            /** @enum {string} */
                            trend: "new" | "up" | "down" | "flat";
                            /** @description Up to three questions, newest first, with personal data masked. */
                            examples: string[];
                            reasons: {
                                refused: number;
                                low_evidence: number;
                                thumbs_down: number;
                                handed_off: number;
                            } & {
                                [key: string]: unknown;
                            };
                            nearestDocument: ({
                                id: string;
                                title: string;
                                url: string | null;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            /** @description Null when curated answers are not available. */
                            curatedAnswer: ({
                                covered: boolean;
                                id: string | null;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            lastAskedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "feedback.list": {
        parameters: {
            query?: {
                rating?: "up" | "down";
                hasComment?: "true" | "false";
                documentId?: string;
                period?: "7d" | "30d" | "90d";
                since?: string;
                until?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        data: ({
                            id: string;
                            messageId: string;
                            conversationId: string;
                            /** @enum {string} */
                            rating: "up" | "down";
                            comment: string | null;
                            question: string | null;
                            citations: ({
                                documentId: string;
                                chunkId: string;
                                /** @description The document’s `updatedAt` when the answer read it. */
                                documentVersion: string;
                                addressedByEdit: boolean;
                                addressedAt: string | null;
                            } & {
                                [key: string]: unknown;
                            })[];
                            /** @description Every document the answer cited has been edited since. */
                            addressedByEdit: boolean;
                            createdAt: string;
                            updatedAt: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "documents.feedback": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        documentId: string;
                        version: string;
                        negative: number;
                        chunks: ({
                            chunkId: string;
                            documentVersion: string;
                            /** @description The chunk is of the document’s current version. */
                            current: boolean;
                            negative: number;
                            addressed: number;
                            lastAt: string;
                            headingPath: string[] | null;
                            /** @description The passage, while it still exists. */
                            text: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "privacy.get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Replace e-mail addresses, phone numbers, card numbers, Thai ID numbers and the patterns below before a message is stored or text reaches a model provider. */
                        redactPii: boolean;
                        patterns: {
                            name: string;
                            /** @description RE2 syntax (no backreferences or lookarounds); matches become [NAME]. */
                            pattern: string;
                        }[];
                        /** @description Conversations idle this many days are purged by the retention job; null keeps them. */
                        retentionDays: number | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "privacy.update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    redactPii?: boolean;
                    patterns?: {
                        name: string;
                        pattern: string;
                    }[];
                    retentionDays?: number | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Replace e-mail addresses, phone numbers, card numbers, Thai ID numbers and the patterns below before a message is stored or text reaches a model provider. */
                        redactPii: boolean;
                        patterns: {
                            name: string;
                            /** @description RE2 syntax (no backreferences or lookarounds); matches become [NAME]. */
                            pattern: string;
                        }[];
                        /** @description Conversations idle this many days are purged by the retention job; null keeps them. */
                        retentionDays: number | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "audit.list": {
        parameters: {
            query?: {
                type?: string;
                subjectId?: string;
                actor?: string;
                workspaceId?: string;
                since?: string;
                until?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first. */
                        data: ({
                            id: string;
                            /** @description Position in the tenant chain; null for entries written before the chain existed. */
                            seq: number | null;
                            type: string;
                            workspaceId: string | null;
                            actor: string;
                            /** @enum {string} */
                            actorKind: "user" | "key" | "operator" | "webhook" | "system";
                            subjectId: string | null;
                            data: {
                                [key: string]: unknown;
                            };
                            before: {
                                [key: string]: unknown;
                            } | null;
                            after: {
                                [key: string]: unknown;
                            } | null;
                            createdAt: string;
                            prevHash: string | null;
                            /** @description SHA-256 of the entry; `panya audit verify` checks the chain. */
                            hash: string | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                        hasMore: boolean;
                        /** @description Pass as `cursor` to continue; null when there is nothing more. */
                        nextCursor: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tenant.sso.get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        issuer: string;
                        clientId: string;
                        /** @description The client secret's last four characters; the secret itself is never shown again. */
                        clientSecretHint: string;
                        allowedDomains: string[];
                        roleClaim: string | null;
                        roleMap: {
                            [key: string]: "admin" | "editor" | "viewer";
                        };
                        defaultRole: ("admin" | "editor" | "viewer") | null;
                        passwordLogin: boolean;
                        /** @description The callback path to register at the provider, on this server's origin. */
                        redirectPath: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tenant.sso.put": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The provider's issuer URL; its discovery document is read from `/.well-known/openid-configuration`. */
                    issuer: string;
                    clientId: string;
                    /** @description Required the first time; omitted: the stored secret is kept. Reads show only its last four characters. */
                    clientSecret?: string;
                    /** @description E-mail domains whose users may sign in. */
                    allowedDomains: string[];
                    /**
                     * @description The ID-token claim read for the role (a string or a list of strings, e.g. `groups`).
                     * @default null
                     */
                    roleClaim?: string | null;
                    /**
                     * @description Claim value → role; when several match, the most capable wins. `owner` is never granted by a provider.
                     * @default {}
                     */
                    roleMap?: {
                        [key: string]: "admin" | "editor" | "viewer";
                    };
                    /**
                     * @description The role when no claim value matches; null: such users are refused.
                     * @default null
                     */
                    defaultRole?: ("admin" | "editor" | "viewer") | null;
                    /**
                     * @description False: the tenant's members sign in through the provider only.
                     * @default true
                     */
                    passwordLogin?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        issuer: string;
                        clientId: string;
                        /** @description The client secret's last four characters; the secret itself is never shown again. */
                        clientSecretHint: string;
                        allowedDomains: string[];
                        roleClaim: string | null;
                        roleMap: {
                            [key: string]: "admin" | "editor" | "viewer";
                        };
                        defaultRole: ("admin" | "editor" | "viewer") | null;
                        passwordLogin: boolean;
                        /** @description The callback path to register at the provider, on this server's origin. */
                        redirectPath: string;
                        updatedAt: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    "tenant.sso.delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        deleted: true;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiDocsUpload: {
        parameters: {
            query?: {
                /** @description `true`: answer once the documents are indexed. */
                wait?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    file: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            [key: string]: unknown;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiChat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    query: string;
                    /** @enum {string} */
                    locale?: "th" | "en";
                    conversationId?: string;
                    personaId?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        /** @constant */
                        event: "meta";
                        data: {
                            conversationId: string;
                            messageId: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } | {
                        /** @constant */
                        event: "delta";
                        data: {
                            text: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } | {
                        /** @constant */
                        event: "citation";
                        data: {
                            n: number;
                            documentId: string;
                            chunkId: string;
                            title: string;
                            /** @description The section of the document the cited chunk is in, outermost heading first. */
                            headingPath: string[];
                            /** @description The document's source link, if it has one. */
                            url: string | null;
                            /** @description The cited section in the help center (`…/articles/{documentId}#{heading}`); null when the document is not published there. */
                            articleUrl: string | null;
                            snippet: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } | {
                        /** @constant */
                        event: "done";
                        data: {
                            usage: {
                                inputTokens: number;
                                outputTokens: number;
                            } & {
                                [key: string]: unknown;
                            };
                            grounded: boolean;
                            query: string;
                            /** @description Present when the answer is a curated answer of the workspace, given verbatim. */
                            curated?: {
                                id: string;
                                /** @description The curated question the query matched. */
                                question: string;
                                /**
                                 * @description Where the curated answer came from.
                                 * @enum {string}
                                 */
                                origin: "gap" | "feedback" | "manual";
                                originRef: string | null;
                                /** @description The documents the curated answer rests on. */
                                documentIds: string[];
                            } & {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                    } | {
                        /** @constant */
                        event: "error";
                        data: {
                            code: string;
                            detail: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAuditExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiDifyRetrieval: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A workspace of the key's tenant: its slug or id. */
                    knowledge_id: string;
                    query: string;
                    retrieval_setting: {
                        top_k: number;
                        /**
                         * @description Records scoring below it are left out; 0 when Dify's threshold is off.
                         * @default 0
                         */
                        score_threshold?: number;
                    } & {
                        [key: string]: unknown;
                    };
                    metadata_condition?: ({
                        /**
                         * @default and
                         * @enum {string}
                         */
                        logical_operator?: "and" | "or";
                        conditions: ({
                            name: string;
                            /** @enum {string} */
                            comparison_operator: "contains" | "not contains" | "start with" | "end with" | "is" | "is not" | "in" | "not in" | "empty" | "not empty" | "=" | "≠" | ">" | "<" | "≥" | "≤" | "before" | "after";
                            value?: string | number | string[] | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    }) | null;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        records: ({
                            content: string;
                            score: number;
                            title: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        /** @constant */
                        jsonrpc: "2.0";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    jsonrpc: "2.0";
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWellKnownOauthProtectedResource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAuthSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiCronJob: {
        parameters: {
            query?: {
                /** @description Time budget of jobs that work in slices (1..600000). */
                budgetMs?: string;
            };
            header?: never;
            path: {
                /** @description The job; its UTC schedule under `panya serve --cron`: `sla-breach` (`* * * * *`), `resolutions` (`*\/15 * * * *`), `retention` (`0 3 * * *`), `workspace-cleanup` (`30 3 * * *`), `usage-reporter` (`0 1 1 * *`), `hostname-poll` (`*\/5 * * * *`), `vectorize-reindex` (`*\/10 * * * *`), `content-gaps` (`*\/5 * * * *`). */
                job: "sla-breach" | "resolutions" | "retention" | "workspace-cleanup" | "usage-reporter" | "hostname-poll" | "vectorize-reindex" | "content-gaps";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job: string;
                        ran: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiBillingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiConnectorsWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id: string;
                    /** @enum {unknown} */
                    type: "document.upsert" | "document.delete";
                    externalId: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiEdgeTlsAllowed: {
        parameters: {
            query: {
                /** @description The hostname a certificate is asked for. */
                domain: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiOpsHostnames: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ready";
                        checks: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getDocsScalarJs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWidgetJs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description Error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
