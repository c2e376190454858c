// `created_by` of templates and signature requests: the SQL lives in @esign/db; the DTO is the
// row the statement builds (id, email, name), unchanged.
export { type CreatedByRow as CreatedByDto, createdByColumn } from '@esign/db/queries/created-by';
