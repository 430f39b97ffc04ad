import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../indexer/formats/converted.js';
import { notebookToMarkdown } from '../../../indexer/formats/notebook.js';

function notebook(
  cells: unknown[],
  metadata: unknown = { kernelspec: { language: 'python', name: 'python3' } },
): string {
  return JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata, cells });
}

describe('notebookToMarkdown', () => {
  it('gives Markdown cells as they are and code cells fenced in the kernel language, without outputs or raw cells', () => {
    const text = notebook([
      { cell_type: 'markdown', metadata: {}, source: ['# Loading data\n', '\n', 'Read the **CSV** first.'] },
      {
        cell_type: 'code',
        metadata: {},
        execution_count: 1,
        source: 'import pandas as pd\ndf = pd.read_csv("x.csv")\n',
        outputs: [{ output_type: 'stream', name: 'stdout', text: ['SECRET OUTPUT ROWS\n'] }],
      },
      { cell_type: 'raw', metadata: {}, source: '.. raw rst' },
      { cell_type: 'code', metadata: {}, source: [], outputs: [] },
    ]);
    expect(notebookToMarkdown(text)).toEqual({
      title: undefined,
      markdown:
        '# Loading data\n\nRead the **CSV** first.\n\n```python\nimport pandas as pd\ndf = pd.read_csv("x.csv")\n```\n',
    });
  });

  it('takes the language from language_info when there is no kernelspec, and fences code that holds backticks', () => {
    const text = notebook([{ cell_type: 'code', source: 'print("```")' }], { language_info: { name: 'julia' } });
    expect(notebookToMarkdown(text).markdown).toBe('````julia\nprint("```")\n````\n');
  });

  it('refuses a file that is not a notebook with a FormatError that quotes nothing of it', () => {
    expect(() => notebookToMarkdown('SECRET not json')).toThrow(new FormatError('its text is not JSON'));
    let error: unknown;
    try {
      notebookToMarkdown(JSON.stringify({ nbformat: 3, worksheets: [{ cells: ['SECRET'] }] }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatError);
    expect((error as Error).message).toMatch(/^it is not of nbformat 4 or later \(nbformat: /);
    expect((error as Error).message).not.toMatch(/SECRET/);
  });
});
