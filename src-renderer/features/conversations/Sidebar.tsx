import { useApp } from '../../state/app-store';

export function Sidebar() {
  const { conversations, current, newConversation, openConversation } = useApp();
  return (
    <nav className="sidebar" aria-label="Conversations">
      <button className="primary new-conv" onClick={() => void newConversation()}>
        New conversation
      </button>
      <ul>
        {conversations.map((c) => (
          <li key={c.id}>
            <button className={c.id === current?.conv.id ? 'conv active' : 'conv'} onClick={() => void openConversation(c.id)} title={c.workspace}>
              {c.title}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
