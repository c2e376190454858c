export { createTemplate } from './create.ts';

export { archiveTemplate, duplicateTemplate, updateTemplate } from './edit.ts';
export {
  addTemplateDocument,
  openTemplateEditor,
  saveFromEditor,
} from './editor.ts';

export { issueTemplatePreview } from './preview.ts';

export { getTemplate, listTemplates } from './read.ts';
export { RENDER_PAGES_JOB, renderTemplatePagesJob } from './render-pages.ts';
