#!/usr/bin/env bash
# Production dependencies must carry no high or critical advisory. When the registry's audit
# endpoint cannot be reached (an offline mirror, a proxy without the audit API), the check is
# skipped with a visible notice rather than failing the build on something it could not ask.
set -uo pipefail
cd "$(dirname "$0")/.."

out="$(pnpm audit --prod --audit-level high 2>&1)"
status=$?
echo "$out"
if [[ $status -ne 0 ]] && grep -qE 'ERR_PNPM_AUDIT_BAD_RESPONSE|ERR_PNPM_AUDIT_ENDPOINT|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ERR_PNPM_FETCH' <<<"$out"; then
  echo "::notice::pnpm audit skipped: the registry's audit endpoint did not answer (see above). Run 'pnpm audit --prod' where it is reachable."
  exit 0
fi
exit $status
