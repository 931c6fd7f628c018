/**
 * The context menu of a listing row (right click, Shift+F10, the Menu key): the same actions as
 * the keyboard, each listed only where it is allowed. A react-aria-components Menu in a Popover:
 * arrow keys move, Enter runs, Escape closes and focus goes back to the row.
 */
import { useRef } from 'react';
import { Keyboard, Menu, MenuItem, Popover, Text } from 'react-aria-components';

export interface MenuAction {
  id: string;
  label: string;
  shortcut?: string;
  danger?: boolean;
}

export interface MenuState {
  label: string;
  actions: MenuAction[];
  anchor: { x: number; y: number } | HTMLElement;
}

export function RowMenu(props: { menu: MenuState | null; onAction(id: string): void; onClose(): void }) {
  const pointRef = useRef<HTMLDivElement>(null);
  const elementRef = useRef<HTMLElement | null>(null);
  const { menu } = props;
  const atPoint = menu && !(menu.anchor instanceof HTMLElement) ? menu.anchor : undefined;
  if (menu && menu.anchor instanceof HTMLElement) elementRef.current = menu.anchor;
  return (
    <>
      <div ref={pointRef} className="context-anchor" style={atPoint ? { left: atPoint.x, top: atPoint.y } : { left: 0, top: 0 }} aria-hidden />
      <Popover
        triggerRef={atPoint ? pointRef : elementRef}
        isOpen={menu !== null}
        onOpenChange={(open) => {
          if (!open) props.onClose();
        }}
        placement="bottom start"
        offset={atPoint ? 0 : -8}
        crossOffset={atPoint ? 0 : 24}
        className="context-menu-popover"
        aria-label={menu?.label ?? 'Actions'}
      >
        {menu ? (
          <Menu
            aria-label={menu.label}
            className="context-menu"
            autoFocus="first"
            onAction={(key) => {
              props.onClose();
              props.onAction(String(key));
            }}
          >
            {menu.actions.map((a) => (
              <MenuItem key={a.id} id={a.id} textValue={a.label} className={`context-menu-item${a.danger ? ' is-danger' : ''}`}>
                <Text slot="label">{a.label}</Text>
                {a.shortcut ? <Keyboard className="context-menu-key">{a.shortcut}</Keyboard> : null}
              </MenuItem>
            ))}
          </Menu>
        ) : null}
      </Popover>
    </>
  );
}
