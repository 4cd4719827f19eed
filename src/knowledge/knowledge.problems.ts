import { fieldProblems } from '../shared/field-problems.js';

/** Knowledge: what a source or a search can break (wordings, see field-problems.ts). */
export const knowledgeProblems = fieldProblems('knowledge', {
  question_empty: 'is empty: write the question a customer asks',
  answer_empty: 'is empty: write the answer',
  title_empty: 'is empty: give the document a title',
  content_empty: 'is empty: write the document or upload a file',
  content_or_file: 'give the text or a file, not both',
  document_too_large: 'is larger than {{limit}}: split the document into smaller ones',
  file_type: 'must be a text (.txt) or Markdown (.md) file',
  file_not_text: 'is not text: save it as UTF-8 text (.txt) or Markdown (.md)',
  not_for_kind: 'does not apply to this kind of source',
  synced_source: 'is kept from the workspace’s templates or quick replies: change those where they are kept',
  query_no_words: 'has no words to search for',
  too_many_sources: 'would make {{count}} sources: a workspace keeps at most {{limit}}',
});
