# Generated from the OpenAPI document of apps/api (buildOpenApiDocument) by
# packages/client/scripts/python-operations.ts. Do not edit: run `pnpm --filter @esign/client generate`.
# packages/client/test/generated.test.ts fails when this file differs from what the document generates.

OPERATIONS = {
    "account-credits": ("GET", "/credits"),  # Credit balance and whether sending is possible
    "account-me": ("GET", "/me"),  # Who am I: user, account, environment and key
    "billing-createCheckout": ("POST", "/checkouts"),  # Start a checkout for a credit pack
    "billing-getCheckout": ("GET", "/checkouts/{id}"),  # Get a checkout you started
    "billing-listPacks": ("GET", "/credit_packs"),  # Credit packs, cheapest first, on one page
    "brands-create": ("POST", "/brands"),  # Create a brand (admins): name, logo, colours, sender identity
    "brands-delete": ("DELETE", "/brands/{id}"),  # Delete a brand (admins); what named it shows the default brand
    "brands-get": ("GET", "/brands/{id}"),  # Get a brand with its logo
    "brands-list": ("GET", "/brands"),  # List the account's brands, newest first
    "brands-update": ("PATCH", "/brands/{id}"),  # Update a brand (admins; PUT is an alias)
    "bulkSends-create": ("POST", "/bulk_sends"),  # Send a template to every row of a CSV or XLSX file
    "bulkSends-get": ("GET", "/bulk_sends/{id}"),  # A bulk send's progress
    "bulkSends-preview": ("POST", "/bulk_sends/preview"),  # Check a file and mapping; first rows with their errors
    "bulkSends-resume": ("POST", "/bulk_sends/{id}/resume"),  # Send the rows left when a bulk send stopped
    "bulkSends-rows": ("GET", "/bulk_sends/{id}/rows"),  # Every row's outcome, in file order
    "documents-verify": ("POST", "/documents/verify"),  # Check whether a PDF is a document this service sealed, unchanged, with intact signatures
    "feedback-send": ("POST", "/feedback"),  # Send a bug report, feature request, feedback or question to the operator
    "signatureRequests-cancel": ("POST", "/signature_requests/{id}/cancel"),  # Cancel a signature request (idempotent on canceled)
    "signatureRequests-create": ("POST", "/signature_requests"),  # Send a template to signers
    "signatureRequests-get": ("GET", "/signature_requests/{id}"),  # Get a signature request with every signer, values and, once completed, documents
    "signatureRequests-list": ("GET", "/signature_requests"),  # List signature requests, newest first
    "signatureRequests-remind": ("POST", "/signature_requests/{id}/remind"),  # Email (or text) the signing link again to invited, unfinished signers (once per hour)
    "signers-get": ("GET", "/signers/{id}"),  # Get a signer with values and, once signed, documents
    "signers-update": ("PATCH", "/signers/{id}"),  # Correct a signer, merge prefill, or resend the link (PUT is an alias)
    "signingLinks-get": ("GET", "/templates/{id}/signing_link"),  # Get a template's public signing link settings
    "signingLinks-update": ("PATCH", "/templates/{id}/signing_link"),  # Turn a template's public signing link on or off, set its role, pre-assigned signers and cap
    "templates-archive": ("POST", "/templates/{id}/archive"),  # Archive a template (idempotent)
    "templates-create": ("POST", "/templates"),  # Create a template from documents (JSON with base64 or https URLs, or multipart/form-data)
    "templates-duplicate": ("POST", "/templates/{id}/duplicate"),  # Copy a template with its documents, fields and roles
    "templates-get": ("GET", "/templates/{id}"),  # Get a template with roles, fields and documents
    "templates-list": ("GET", "/templates"),  # List templates, newest first
    "templates-update": ("PATCH", "/templates/{id}"),  # Update a template (PUT is an alias)
}
