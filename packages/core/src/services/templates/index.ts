export { type CreateTemplateArgs, createTemplate } from './create.ts';
export { type DtoContext, templateEventData, toFieldDto, toTemplateDto } from './dto.ts';
export { archiveTemplate, duplicateTemplate, type UpdateTemplateArgs, updateTemplate } from './edit.ts';
export {
  addTemplateDocument,
  type EditorSaveResult,
  type EditorState,
  openTemplateEditor,
  saveFromEditor,
} from './editor.ts';
export { DEFAULT_ROLE, MAX_ROLES, MAX_TEMPLATE_FIELDS } from './fields.ts';
export { isPreviewToken, issueTemplatePreview, openTemplatePreview, PREVIEW_TTL_SECONDS } from './preview.ts';
export {
  findTemplate,
  loadTemplateDocuments,
  loadTemplateFields,
  lockTemplate,
  requireTemplate,
} from './queries.ts';
export { getTemplate, listTemplates } from './read.ts';
export { PRERENDER_PAGES, RENDER_PAGES_JOB, renderTemplatePagesJob } from './render-pages.ts';
