// An article the overlay renders from the API (an unpublished post, or one changed since the live build):
// the same markup as src/components/PostArticle.astro, with the admin bar, the body through the site's
// markdown pipeline (plain text until that chunk has loaded), and the attached file.
import { formatBytes } from '../../lib/format.ts';
import type { Post } from '../../lib/api/posts.ts';
import { PostAdminBar } from './PostAdminBar.tsx';
import { useRenderedMarkdown, useTypographicText } from './use-markdown.ts';

interface AdminArticleProps {
  post: Post;
  onEdit: (post: Post) => void;
  onDelete: (post: Post) => void;
}

export function AdminArticle({ post, onEdit, onDelete }: AdminArticleProps) {
  const html = useRenderedMarkdown(post.body);
  const title = useTypographicText(post.title);
  const file = post.uploaded_file;
  const size = file ? formatBytes(file.size) : '';
  return (
    <>
      <PostAdminBar post={post} onEdit={onEdit} onDelete={onDelete} />
      <h2 id={`${post.title_slug}-title`} className="post__title">
        {title}
      </h2>
      {html === null ? <div className="prose md-editor__plain">{post.body}</div> : <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />}
      {file && (
        <aside className="post-download" aria-label={`Attached file ${file.filename}`}>
          <p className="post-download__file">
            <span className="post-download__name">{file.filename}</span>
            {size && <span className="post-download__size">{size}</span>}
          </p>
          {file.description && <p className="post-download__description">{file.description}</p>}
        </aside>
      )}
      <footer className="post__meta">
        {post.user && (
          <span className="post__author">
            {post.user.name} <span className="post__role">{post.user.role}</span>
          </span>
        )}
        <time dateTime={post.created_at} title={new Date(post.created_at).toLocaleString()}>
          {post.created_at_diff}
        </time>
      </footer>
    </>
  );
}
