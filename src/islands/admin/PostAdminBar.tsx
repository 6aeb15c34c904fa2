// The admin's line on every article (docs/product/reading.md#posts-screens): PUBLISHED or NOT PUBLISHED, the display order, and
// Edit and Delete (plus Download when a file is attached: admins may download any file, docs/product/roles.md).
import { useState } from 'react';
import type { Post } from '../../lib/api/posts.ts';
import { downloadFile } from '../../lib/api/files.ts';
import { failureNotice } from './notices.ts';

interface PostAdminBarProps {
  post: Post;
  onEdit: (post: Post) => void;
  onDelete: (post: Post) => void;
}

export function PostAdminBar({ post, onEdit, onDelete }: PostAdminBarProps) {
  const [error, setError] = useState('');
  const file = post.uploaded_file;

  const download = async (button: HTMLButtonElement) => {
    if (!file) return;
    setError('');
    try {
      await downloadFile(post.namespace, file);
    } catch (failure) {
      setError(failureNotice(failure).text);
    } finally {
      button.focus();
    }
  };

  return (
    <div className="post-admin-bar" data-post-admin={post.id}>
      <span className={post.published ? 'post-state post-state--published' : 'post-state post-state--draft'}>
        {post.published ? 'PUBLISHED' : 'NOT PUBLISHED'}
      </span>
      <span className="post-admin-bar__order">Display order: {post.display_order}</span>
      <span className="post-admin-bar__actions">
        {file && (
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={(event) => void download(event.currentTarget)}
            aria-label={`Download ${file.filename}`}
          >
            Download
          </button>
        )}
        <button type="button" className="button button--small" onClick={() => onEdit(post)} aria-label={`Edit ${post.title}`}>
          Edit
        </button>
        <button type="button" className="button button--small button--danger" onClick={() => onDelete(post)} aria-label={`Delete ${post.title}`}>
          Delete
        </button>
      </span>
      {error && (
        <p className="post-admin-bar__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
