// The admin's line on each home section (docs/product/reading.md#home): Edit, Delete and the section's images as they are
// assigned now (the slideshow beside it shows the published ones until the publish), with the image
// manager one click away.
import type { HomeSection } from '../../lib/api/home.ts';
import { NOT_FOUND_IMAGE } from './notices.ts';

interface HomeAdminBarProps {
  section: HomeSection;
  onEdit: (section: HomeSection) => void;
  onDelete: (section: HomeSection) => void;
  onImages: (section: HomeSection) => void;
}

export function HomeAdminBar({ section, onEdit, onDelete, onImages }: HomeAdminBarProps) {
  return (
    <div className="post-admin-bar home-admin-bar" data-home-admin={section.id}>
      <span className="post-admin-bar__order">Order: {section.order}</span>
      <span className="post-admin-bar__actions">
        <button type="button" className="button button--small" onClick={() => onEdit(section)} aria-label={`Edit ${section.title}`}>
          Edit
        </button>
        <button type="button" className="button button--small button--danger" onClick={() => onDelete(section)} aria-label={`Delete ${section.title}`}>
          Delete
        </button>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => onImages(section)}
          aria-haspopup="dialog"
          aria-label={`Images of ${section.title} (${section.images.length})`}
        >
          Images ({section.images.length})
        </button>
      </span>
      {section.images.length > 0 && (
        <ul className="home-admin-bar__thumbs" aria-label={`Images assigned to ${section.title}`}>
          {section.images.map((image) => (
            <li key={image.id}>
              <img
                src={image.urls.thumb ?? image.urls.lg ?? NOT_FOUND_IMAGE}
                alt={image.alt}
                title={image.title}
                loading="lazy"
                onError={(event) => {
                  if (!event.currentTarget.src.endsWith(NOT_FOUND_IMAGE)) event.currentTarget.src = NOT_FOUND_IMAGE;
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
